from django.contrib import admin
from django.urls import path
from django.views.generic import RedirectView

admin.site.site_header = "Northwind Shop administration"
admin.site.site_title = "Northwind Shop admin"
admin.site.index_title = "Shop back office"

urlpatterns = [
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
    path("admin/", admin.site.urls),
]
