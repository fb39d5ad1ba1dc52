import os

import django
import pytest

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
django.setup()


@pytest.fixture(scope="session")
def siwa_server_args():
    # django-allauth checks that id_tokens come from https://appleid.apple.com: the server signs as Apple.
    return ["--issuer", "apple"]


@pytest.fixture(scope="session", autouse=True)
def database():
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
