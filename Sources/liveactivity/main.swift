print("liveactivity: not built yet")
