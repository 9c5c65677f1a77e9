//! The tier matrix of the five specification endpoints.
