//! Per-account isolation, route by route.
