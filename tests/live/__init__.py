"""Tests that run the club as real daphne processes sharing PostgreSQL and Redis."""
