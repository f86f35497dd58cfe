"""Local emulators of the CNB market-data API and the COBS PSD2 API."""
