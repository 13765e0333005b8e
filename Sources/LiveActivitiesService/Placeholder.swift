// Placeholder: replaced by the LiveActivitiesService implementation.
