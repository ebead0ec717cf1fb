from datetime import datetime, timezone

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db.migrations.recorder import MigrationRecorder

from shop.models import Customer
from shop.seed import seed


class Command(BaseCommand):
    help = "Create the schema and the fixed seed data in an empty database."

    def handle(self, *args, **options):
        call_command("migrate", interactive=False, verbosity=0)
        if Customer.objects.exists():
            raise CommandError("the database is already seeded: seed an empty file")
        seed()
        # migrate stamps the clock; a fixed stamp makes the seeded file identical byte for byte on every run.
        MigrationRecorder.Migration.objects.update(applied=datetime(2024, 1, 1, tzinfo=timezone.utc))
