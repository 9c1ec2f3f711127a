"""What operators watch, from every part: logs, metrics, traces, which workers are alive."""
