// Placeholder: replaced by the DBus implementation.
