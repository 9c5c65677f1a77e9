//! Credentials: API keys, session tokens, login and logout, the account API.
