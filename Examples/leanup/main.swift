print("leanup")
