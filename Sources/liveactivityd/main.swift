import FoundationEssentials
import Glibc
import LiveActivitiesService

exit(Daemon.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
