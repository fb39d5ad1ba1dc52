import AppleIDServer; import ArgumentParser; print("x")
