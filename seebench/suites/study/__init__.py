"""The human-study suite (RealHumanEval): web app, telemetry store and analysis."""
