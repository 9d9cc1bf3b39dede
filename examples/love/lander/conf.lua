-- LÖVE configuration of the lander example (examples/love/lander; docs/examples.md).
function love.conf(t)
  t.identity = "addbo-lander"
  t.version = "11.4"
  t.window.title = "addbo tunes a lander's autopilot"
  t.window.width = 960
  t.window.height = 600
  -- No sound: the game has none, and a headless machine has no sound device to open.
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
end
