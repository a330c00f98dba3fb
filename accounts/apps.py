from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Members' accounts: joining, logging in and out, passwords, the names a member may take,
    and the limits on how often one address may try (no models: Django's users and
    django-axes's records)."""

    name = "accounts"
