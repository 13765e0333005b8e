// Placeholder: replaced by the ActivityModel implementation.
