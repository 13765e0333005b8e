print("focusflow")
