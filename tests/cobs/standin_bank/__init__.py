"""A stand-in COBS bank written from the standard's texts only, and cnbkit's public client
driven against it: a second judge beside the sandbox (see README.md)."""
