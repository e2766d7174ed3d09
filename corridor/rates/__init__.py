"""Exchange rates: the feeds (ECB, Frankfurter), fetched and checked; the ECB history file; the rates in force."""
