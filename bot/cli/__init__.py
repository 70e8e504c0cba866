"""The command line: `paperclub run`, import, export, search and the operator commands,
one module a command group (main.py holds the parser and the run command)."""
