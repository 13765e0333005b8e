print("liveactivityd: not built yet")
