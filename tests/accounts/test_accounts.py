"""Accounts: login lockout, sign-up and reset throttles, password change and reset, and names
that look like a member's (docs/security.md, "Accounts")."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts import limits, names

pytestmark = pytest.mark.django_db

PASSWORD = "green-baize-77"


@pytest.fixture
def alice(db: None) -> User:
    return get_user_model().objects.create_user("alice", "alice@example.org", PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return get_user_model().objects.create_user("bob", "bob@example.org", PASSWORD)


def log_in(client: Client, username: str, password: str, address: str = "192.0.2.1") -> int:
    response = client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )
    return response.status_code


def logged_in_as(client: Client) -> str | None:
    user = client.get("/").wsgi_request.user
    return user.get_username() if user.is_authenticated else None


# --- login lockout (django-axes) --------------------------------------------------------------


@pytest.fixture
def three_failures(settings: SettingsWrapper) -> None:
    settings.AXES_FAILURE_LIMIT = 3


@pytest.mark.usefixtures("three_failures")
def test_wrong_passwords_lock_the_address_out_even_with_the_right_one(
    client: Client, alice: User, bob: User
) -> None:
    assert [log_in(client, "alice", "wrong") for _ in range(2)] == [200, 200]
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "wrong"}, REMOTE_ADDR="192.0.2.1"
    )
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many attempts" in page and "15 minutes" in page
    assert response["Retry-After"] == "900"
    # The right password from that address, to that account or another, is refused.
    assert log_in(client, "alice", PASSWORD) == 429
    assert log_in(client, "bob", PASSWORD) == 429
    assert logged_in_as(client) is None
    # Bob from another address is not held up.
    assert log_in(client, "bob", PASSWORD, address="198.51.100.7") == 302
    assert logged_in_as(client) == "bob"


def later(minutes: float) -> None:
    """The clock moves on: every stored time of the lockout goes back as much."""
    back = timedelta(minutes=minutes)
    for model, field in (
        (AccessAttempt, "attempt_time"),
        (AccessAttemptExpiration, "expires_at"),
        (AccessFailureLog, "attempt_time"),
    ):
        for row in model.objects.all():
            setattr(row, field, getattr(row, field) - back)
            row.save(update_fields=[field])


def test_ten_wrong_passwords_from_one_address_never_lock_the_member_out_from_another(
    client: Client, alice: User
) -> None:
    """The attack: ten wrong passwords for a member from address X; the member logs in from
    address Y at once."""
    assert [log_in(client, "alice", "wrong", address="203.0.113.1") for _ in range(10)][-1] == 429
    assert log_in(client, "alice", PASSWORD, address="203.0.113.1") == 429
    assert log_in(client, "alice", PASSWORD, address="198.51.100.7") == 302
    assert logged_in_as(client) == "alice"


@pytest.mark.usefixtures("three_failures")
def test_wrong_passwords_from_many_addresses_lock_no_address_of_the_members(
    client: Client, alice: User
) -> None:
    for n in range(3):
        for _ in range(2):
            log_in(client, "alice", "wrong", address=f"203.0.113.{n + 1}")
    assert log_in(client, "alice", PASSWORD, address="203.0.113.99") == 302
    assert logged_in_as(client) == "alice"


@pytest.mark.usefixtures("three_failures")
def test_password_spraying_from_one_address_locks_the_address(
    client: Client, alice: User, bob: User
) -> None:
    for name in ("alice", "bob", "carol"):
        assert log_in(client, name, "wrong", address="203.0.113.5") in (200, 429)
    assert log_in(client, "alice", PASSWORD, address="203.0.113.5") == 429
    assert log_in(client, "bob", PASSWORD, address="203.0.113.6") == 302


@pytest.mark.usefixtures("three_failures")
def test_failures_during_a_lockout_never_extend_it(client: Client, alice: User) -> None:
    """One wrong password every 14 minutes does not keep anyone locked: the lockout ends 15
    minutes after the failure that set it."""
    for _ in range(3):
        log_in(client, "alice", "wrong")
    later(14)
    assert log_in(client, "alice", "wrong") == 429
    later(1.5)
    assert log_in(client, "alice", PASSWORD) == 302
    client.post("/accounts/logout/")
    # The refused guess was not counted: two more are not yet a lockout.
    assert [log_in(client, "alice", "wrong") for _ in range(2)] == [200, 200]


@pytest.mark.usefixtures("three_failures")
def test_a_pair_that_keeps_failing_waits_longer_each_time(client: Client, alice: User) -> None:
    for _ in range(3):
        log_in(client, "alice", "wrong")
    assert log_in(client, "alice", PASSWORD) == 429
    later(16)
    response = None
    for _ in range(3):
        response = client.post(
            "/accounts/login/", {"username": "alice", "password": "wrong"}, REMOTE_ADDR="192.0.2.1"
        )
    assert response is not None and response.status_code == 429
    assert response["Retry-After"] == "1800" and "30 minutes" in response.content.decode()
    later(16)
    assert log_in(client, "alice", PASSWORD) == 429  # 30 minutes this time
    later(15)
    assert log_in(client, "alice", PASSWORD) == 302


def test_the_backoff_doubles_per_set_of_failures_and_stops_at_its_most() -> None:
    base, most = timedelta(minutes=15), timedelta(hours=2)
    assert [limits.backoff(n, 10, base, most) / base for n in (0, 1, 9, 10)] == [1, 1, 1, 1]
    assert [limits.backoff(n, 10, base, most) / base for n in (11, 19, 20, 21)] == [2, 2, 2, 4]
    assert limits.backoff(10_000, 10, base, most) == most


@pytest.mark.usefixtures("three_failures")
def test_an_ipv6_host_is_one_address_across_its_64(client: Client, alice: User) -> None:
    for n in range(3):
        log_in(client, f"guess{n}", "wrong", address=f"2001:db8:1:2::{n + 1:x}")
    assert log_in(client, "alice", PASSWORD, address="2001:db8:1:2:ffff::1") == 429
    assert log_in(client, "alice", PASSWORD, address="2001:db8:1:3::1") == 302


@pytest.mark.usefixtures("three_failures")
def test_logging_into_an_own_account_does_not_clear_the_address(
    client: Client, alice: User, bob: User
) -> None:
    """A success resets nothing: else an attacker with an account could log into it between
    guesses and never reach the limit."""
    log_in(client, "alice", "wrong")
    log_in(client, "alice", "wrong")
    assert log_in(client, "bob", PASSWORD) == 302
    client.post("/accounts/logout/")
    assert log_in(client, "alice", "wrong") == 429
    assert log_in(client, "alice", PASSWORD) == 429


@pytest.mark.usefixtures("three_failures")
def test_the_lockout_ends_after_the_cool_off(client: Client, alice: User) -> None:
    for _ in range(3):
        log_in(client, "alice", "wrong")
    assert log_in(client, "alice", PASSWORD) == 429
    later(14)
    assert log_in(client, "alice", PASSWORD) == 429
    later(2)
    assert log_in(client, "alice", PASSWORD) == 302


def test_the_limits_come_from_the_environment_with_defaults(settings: SettingsWrapper) -> None:
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"], "ip_address"]
    assert settings.AXES_RESET_ON_SUCCESS is False
    assert settings.AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT is False
    # The defaults (SNOOKER_LOGIN_FAILURES, SNOOKER_LOGIN_COOLOFF, SNOOKER_*_RATE unset).
    assert settings.AXES_FAILURE_LIMIT == 10
    assert settings.SNOOKER_LOGIN_COOLOFF.total_seconds() == 15 * 60
    assert settings.SNOOKER_LOGIN_COOLOFF_MAX.total_seconds() == 24 * 3600
    assert limits.cool_off(None).total_seconds() == 15 * 60
    assert settings.SNOOKER_SIGNUP_RATE == "10/h"
    assert settings.SNOOKER_PASSWORD_RESET_RATE == "5/h"


# --- sign-up and password-reset throttles (django-ratelimit) ----------------------------------


def sign_up(client: Client, username: str, address: str = "192.0.2.1", **extra: str) -> int:
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post("/accounts/signup/", data, REMOTE_ADDR=address).status_code


def test_sign_ups_are_counted_per_address(client: Client, settings: SettingsWrapper) -> None:
    settings.SNOOKER_SIGNUP_RATE = "2/h"
    assert sign_up(client, "carol") == 302
    client.post("/accounts/logout/")
    assert sign_up(client, "dave") == 302
    client.post("/accounts/logout/")
    response = client.post(
        "/accounts/signup/",
        {"username": "erin", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="192.0.2.1",
    )
    assert response.status_code == 429
    assert "Too many sign-up requests" in " ".join(response.content.decode().split())
    assert 0 < int(response["Retry-After"]) <= 3600
    assert not User.objects.filter(username="erin").exists()
    # Failed attempts count too; another address is not held up.
    assert sign_up(client, "erin", address="198.51.100.7") == 302


def test_password_reset_is_counted_per_address_and_per_email(
    client: Client, settings: SettingsWrapper, alice: User
) -> None:
    settings.SNOOKER_PASSWORD_RESET_RATE = "2/h"

    def reset(email: str, address: str) -> int:
        response = client.post("/accounts/password_reset/", {"email": email}, REMOTE_ADDR=address)
        return response.status_code

    assert [reset("alice@example.org", "192.0.2.1") for _ in range(3)] == [302, 302, 429]
    assert len(mail.outbox) == 2
    # The same mailbox from another address: still counted against the e-mail address.
    assert reset("ALICE@example.org", "198.51.100.7") == 429
    assert reset("nobody@example.org", "198.51.100.7") == 302
    assert len(mail.outbox) == 2


# --- password change and reset ----------------------------------------------------------------


def test_every_password_page_answers(client: Client, alice: User) -> None:
    for path in ("/accounts/password_reset/", "/accounts/password_reset/done/",
                 "/accounts/reset/done/", "/accounts/reset/MQ/bad-token/"):  # fmt: skip
        response = client.get(path)
        assert response.status_code == 200, path
        assert "Snooker Club" in response.content.decode()
    assert "no longer works" in client.get("/accounts/reset/MQ/bad-token/").content.decode()
    assert client.get("/accounts/password_change/").status_code == 302  # to the login page
    client.force_login(alice)
    for path in ("/accounts/password_change/", "/accounts/password_change/done/"):
        response = client.get(path)
        assert response.status_code == 200, path
    assert 'href="/accounts/password_change/"' in client.get("/").content.decode()
    client.logout()
    assert 'href="/accounts/password_reset/"' in client.get("/accounts/login/").content.decode()


def test_password_change(client: Client, alice: User) -> None:
    client.force_login(alice)
    new = {"new_password1": "pink-ball-66", "new_password2": "pink-ball-66"}
    response = client.post("/accounts/password_change/", {"old_password": "wrong", **new})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    response = client.post("/accounts/password_change/", {"old_password": PASSWORD, **new})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_change/done/"
    assert logged_in_as(client) == "alice"  # the session survives the change
    client.logout()
    assert log_in(client, "alice", PASSWORD) == 200
    assert log_in(client, "alice", "pink-ball-66") == 302


def test_the_whole_password_reset(client: Client, alice: User, bob: User) -> None:
    response = client.post("/accounts/password_reset/", {"email": "alice@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert "Check your e-mail" in client.get(response["Location"]).content.decode()
    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    assert message.subject == "Your Snooker Club password"
    assert message.from_email == "Snooker Club <webmaster@localhost>"
    assert "alice" in message.body
    link = re.search(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)", message.body)
    assert link is not None, message.body

    # The link leads to a form (Django moves the token into the session first).
    response = client.get(link.group(1))
    assert response.status_code == 302
    form_url = response["Location"]
    assert "Choose a new password" in client.get(form_url).content.decode()
    response = client.post(
        form_url, {"new_password1": "pink-ball-66", "new_password2": "pink-ball-66"}
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/reset/done/"
    assert "Password set" in client.get("/accounts/reset/done/").content.decode()

    assert log_in(client, "alice", PASSWORD) == 200
    assert log_in(client, "alice", "pink-ball-66") == 302
    # The link works once.
    client.logout()
    assert "no longer works" in client.get(link.group(1), follow=True).content.decode()


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client: Client) -> None:
    response = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []


def test_sign_up_keeps_the_email_for_resets(client: Client) -> None:
    assert sign_up(client, "carol", email="carol@example.org") == 302
    assert User.objects.get(username="carol").email == "carol@example.org"


# --- names that look like a member's ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u0430lice", "mixes alphabets"),  # Cyrillic а
        ("ALICE", "already exists"),  # Django's own case-insensitive check
        ("aIice", "looks the same"),  # capital I for l
        ("a1ice", "looks the same"),
        ("ａｌｉｃｅ", "already exists"),  # full width, NFKC
        ("\u0430\u04c0\u0456\u0441\u0435", "looks the same"),  # all Cyrillic: аӀісе
        ("ALlCE", "looks the same"),  # lower-case l for the I of ALICE
    ],
)
def test_a_name_that_looks_like_a_members_is_refused(
    client: Client, alice: User, name: str, why: str
) -> None:
    response = client.post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    assert why in " ".join(response.content.decode().split())
    assert not User.objects.filter(username=name).exists()


def test_cyrillic_names_are_welcome_and_protected_too(client: Client, alice: User) -> None:
    assert sign_up(client, "Алиса") == 302
    assert User.objects.filter(username="Алиса").exists()
    client.post("/accounts/logout/")
    for lookalike in ("Aлиса", "АЛИСА", "алисa"):  # Latin A; upper case; a Latin a at the end
        response = client.post(
            "/accounts/signup/",
            {"username": lookalike, "password1": PASSWORD, "password2": PASSWORD},
        )
        assert response.status_code == 200 and "errorlist" in response.content.decode(), lookalike
    assert sign_up(client, "Борис") == 302


def test_the_rule_in_one_place() -> None:
    assert names.likeness("\u0430lice") == names.likeness("alice") == {"alice", "ALlCE"}
    assert names.likeness("aIice") & names.likeness("Alice")
    assert names.likeness("b0b") & names.likeness("bob")
    assert "rn" in names.likeness("m")  # UTS #39: m looks like rn
    assert not names.likeness("ALLCE") & names.likeness("alice")
    assert names.lookalike_of("alice.", ["bob", "alice"]) == "alice"  # marks left out
    assert names.lookalike_of("b_o-b", ["bob"]) == "bob"
    assert names.lookalike_of("bobby", ["bob"]) is None
    assert not names.likeness("Алиса") & names.likeness("alice")
    assert names.lookalike_of("АЛИСА", ["bob", "алиса"]) == "алиса"
    assert names.mixes_lookalike_scripts("Ivan_Иван")
    assert not names.mixes_lookalike_scripts("Алиса2000")
    assert not names.mixes_lookalike_scripts("Zürich_1")


@pytest.mark.parametrize(
    ("name", "member"),
    [
        ("\u1d00lice", "alice"),  # ᴀlice: a Latin small capital A
        ("\u0299\u1d0f\u0299", "bob"),  # ʙᴏʙ
        ("\u1d00dmin", "admin"),  # ᴀdmin
        ("\u029c\u026a\u029f\u0274\u0280\u028f", "hilnry"),  # ʜɪʟɴʀʏ: IPA Extensions
        ("\u1d80ob", "bob"),  # ᶀob: a b with a palatal hook (Phonetic Extensions Supplement)
        ("ALI\u1d04E", "alice"),  # a small capital among capitals
    ],
)
def test_small_capitals_and_phonetic_letters_meet_the_plain_name(name: str, member: str) -> None:
    assert names.lookalike_of(name, ["carol", member]) == member
    assert not names.mixes_lookalike_scripts(name)  # all Latin: only the fold catches them


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # HANGUL FILLER
        "\u3164\u3164\u3164",
        "\u1160\u115f",  # the Hangul Jamo fillers
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "ali\u200bce",  # a zero-width space inside a visible name
        "alice\u2060",  # WORD JOINER
        "\u034f",  # COMBINING GRAPHEME JOINER
        "\u2800",  # BRAILLE PATTERN BLANK: not ignorable, but nothing shows
        "\u0301\u0301",  # marks with no letter to sit on
    ],
)
def test_a_name_with_nothing_visible_or_an_invisible_character_is_refused(name: str) -> None:
    assert names.invisible(name)
    with pytest.raises(ValidationError) as refused:
        names.validate_new_username(name)
    assert refused.value.code == "invisible"


@pytest.mark.django_db
def test_the_sign_up_form_refuses_a_filler_name_and_a_small_capital_lookalike(
    client: Client, alice: User
) -> None:
    for name in ("\u3164\u3164", "\u1d00lice", "\u1d00\u029f\u026a\u1d04\u1d07"):
        response = client.post(
            "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        )
        assert response.status_code == 200 and "errorlist" in response.content.decode(), name
        assert not User.objects.filter(username=name).exists()
    assert not names.invisible("Z\u00fcrich_1") and not names.invisible(
        "\u0410\u043b\u0438\u0441\u0430"
    )


def test_the_validator_stands_alone(alice: User) -> None:
    names.validate_new_username("Борис")
    with pytest.raises(ValidationError) as refused:
        names.validate_new_username("ALlCE")  # a lower-case l for the I of ALICE
    assert refused.value.code == "lookalike"
    with pytest.raises(ValidationError) as refused:
        names.validate_new_username("\u0430lice")
    assert refused.value.code == "mixed_scripts"


def test_client_address() -> None:
    from django.test import RequestFactory

    def of(address: str) -> str:
        return limits.client_address(RequestFactory().get("/", REMOTE_ADDR=address))

    assert of("192.0.2.1") == "192.0.2.1"
    assert of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::"
    assert of("::ffff:192.0.2.1") == "192.0.2.1"
    assert of("") == ""  # no peer (the test client's force_login): stored as no address


# --- behind a proxy: the right hop of X-Forwarded-For ------------------------------------------


@pytest.fixture
def behind_nginx(settings: SettingsWrapper) -> None:
    settings.TRUSTED_PROXIES = 1


@pytest.mark.usefixtures("behind_nginx", "three_failures")
def test_a_forged_forwarded_for_does_not_escape_the_lockout(client: Client, alice: User) -> None:
    """An appending proxy (proxy_add_x_forwarded_for) leaves the client's forged entries on the
    left: each failure below claims another address, and all count against the real one."""
    statuses = [
        client.post(
            "/accounts/login/",
            {"username": f"guess{n}", "password": "wrong"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"10.66.{n}.1, 203.0.113.50",
        ).status_code
        for n in range(3)
    ]
    assert statuses == [200, 200, 429]  # the third failure locks the address out
    locked = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="10.66.99.1, 203.0.113.50",
    )
    assert locked.status_code == 429
    # Another client behind the same proxy is not held up by it.
    other = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.51",
    )
    assert other.status_code == 302


@pytest.mark.usefixtures("behind_nginx")
def test_a_forged_forwarded_for_does_not_escape_the_sign_up_limit(
    client: Client, settings: SettingsWrapper
) -> None:
    settings.SNOOKER_SIGNUP_RATE = "2/h"

    def attempt(name: str, forwarded: str) -> int:
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        status = client.post(
            "/accounts/signup/", data, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded
        ).status_code
        client.post("/accounts/logout/")
        return status

    statuses = [attempt(f"user{n}", f"10.77.{n}.1, 2001:db8:9:9::{n + 1:x}") for n in range(4)]
    assert statuses == [302, 302, 429, 429]  # one /64, whatever the forged entries say
    assert attempt("other", "2001:db8:9:a::1") == 302
