from django.urls import path

from chat import views

urlpatterns = [
    path("lines/<int:line_id>/report/", views.report, name="chat_report"),
    path("reports/", views.reports, name="chat_reports"),
    path("settings/", views.preferences, name="chat_settings"),
]
