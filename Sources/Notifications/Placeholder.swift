// Placeholder: replaced by the Notifications implementation.
