"""The club's dates in Russian: «1 декабря 2026», «1 декабря, 14:30» (the month in the
genitive, lower case: E), never «1 Дек 2026». "Member since" reads «В клубе с декабря 2026»:
YEAR_MONTH_FORMAT is the genitive too."""

DATE_FORMAT = "j E Y"
DATETIME_FORMAT = "j E Y, H:i"
SHORT_DATETIME_FORMAT = "j E, H:i"
YEAR_MONTH_FORMAT = "E Y"
