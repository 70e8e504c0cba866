"""The running process: wiring (what every platform shares), the runner, the scheduler and its
leader election, health, the redraw coalescer, metrics, logging and the platform registry."""
