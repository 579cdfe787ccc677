"""Reference clients for the crab games rules service."""
