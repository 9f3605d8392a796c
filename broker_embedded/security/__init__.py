"""The broker's security room: TLS contexts, SASL mechanisms and the per-connection authenticator,
principals, the authorizer and its ACL store, and test certificates (`certs.py`).

The network server only wires TLS and the authenticator in; handlers ask the authorizer through
one call each.
"""
