"""The core of Kontor: the basic and advanced game (and the team seating, which is only
sides). It knows no form, scenario, special rule or expansion by name: it calls the hook
points of hooks.py, which registry.py fills. (Where it still reads an extension's module
directly, pyproject.toml's import-linter contracts list the import as a remaining debt.)"""
