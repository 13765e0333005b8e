// Placeholder: replaced by the LiveActivityCLI implementation.
