from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """The club's ratings: every rated result, from any app, and what it did to the members'
    Glicko-2 ratings (ratings/service.py)."""

    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Ratings")
