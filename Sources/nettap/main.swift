print("nettap")
