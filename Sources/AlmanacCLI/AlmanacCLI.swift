// AlmanacCLI
