"""Settings, read once from the environment: settings.py gathers them, one module a platform
or extra checks its own."""
