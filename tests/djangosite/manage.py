#!/usr/bin/env python3
"""The test site's manage.py: `DJANGOSITE_DB=/tmp/x/db.sqlite3 python manage.py seed` then `runserver`."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shopsite.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
