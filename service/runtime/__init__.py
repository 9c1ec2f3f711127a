"""The processes: the `entrepot` command, the composition root, start-up, embedded engines, migrations, the inbound mail listener, health."""
