from crabgames.service.main import main

# Guarded: the long-call processes (long_calls.py) import the main module as __mp_main__.
if __name__ == "__main__":
    main()
