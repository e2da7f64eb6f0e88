// AlmanacCore
