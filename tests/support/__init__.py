"""Helpers shared by the test suites: a live server process and a Chromium to drive."""
