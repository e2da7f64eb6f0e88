// AlmanacXML
