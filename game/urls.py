from django.urls import path

from game import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
]
