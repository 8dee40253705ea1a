"""Training and calibration of the lite heads (``ragguard train``)."""
