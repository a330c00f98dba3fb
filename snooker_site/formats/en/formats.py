"""The club's dates in English: "1 Dec 2026", "1 Dec, 14:30" (FORMAT_MODULE_PATH; a template
names a format, `|date:"DATE_FORMAT"`, never spells one, so each language writes its own)."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M, H:i"
YEAR_MONTH_FORMAT = "F Y"
