"""``python -m seebench``: the same command line as the ``seebench`` script."""

from seebench.cli.main import main

if __name__ == "__main__":
    main()
