"""The development tools (games/devtools/, the dev management commands): the load
benchmark's parts, the fault drill's flaky ESP, the dev broker's atomic writes, the
simulate command, and the dev commands' output.
"""
