"""A client library for accessing regintel: Regional Intelligence Service"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
