-- addbo in a game engine: LÖVE 11 (LuaJIT) runs a lander game while addbo tunes its autopilot
-- between episodes (lander.lua is the game, tuner.lua the ask/tell within the frame budget).
--
--   LUA_CPATH="build/bindings/lua/luajit/?.so;;" love examples/love/lander
--   LUA_CPATH="/opt/addbo/lib/lua/5.1/?.so;;" love examples/love/lander      (installed)
--   xvfb-run -a love examples/love/lander --episodes 40 --steps-per-frame 30   (headless)
-- Options after the game's directory:
--   --episodes N         quit after N episodes (default 0: play on)
--   --steps-per-frame N  simulation steps per frame (default 1: real time; more is faster)
--   --screenshot FILE    write a PNG of the window when the last episode is told
--   --seed N             addbo's seed (default 1)
-- It prints every episode and, at the end, the per-frame cost of addbo against the budget; the
-- exit status is 0, or 1 after an error (printed, since a headless run has nobody to read LÖVE's
-- error screen).
local lander = require("lander")
local tuner = require("tuner")

local options = { episodes = 0, steps_per_frame = 1, screenshot = nil, seed = 1 }
local addbo, tuning, episode
local scores, outcomes = {}, {}
local best = { score = -math.huge, episode = 0 }
local finishing = false  -- the last episode is told: the screenshot, then quit

-- Errors end the program with status 1 and the message on stderr, never LÖVE's error screen.
function love.errorhandler(message)
  io.stderr:write("lander: ", tostring(message), "\n", debug.traceback("", 2), "\n")
  return function() return 1 end
end

local function parse_arguments(args)
  local i = 1
  while i <= #args do
    local flag, value = args[i], args[i + 1]
    if flag == "--screenshot" and value then
      options.screenshot = value
    elseif (flag == "--episodes" or flag == "--steps-per-frame" or flag == "--seed")
        and tonumber(value) and tonumber(value) >= 0 and tonumber(value) % 1 == 0 then
      options[flag:sub(3):gsub("-", "_")] = tonumber(value)
    else
      error(("bad argument %s %s (see the top of main.lua)"):format(tostring(flag), tostring(value)), 0)
    end
    i = i + 2
  end
  options.steps_per_frame = math.max(1, options.steps_per_frame)
end

function love.load(args)
  parse_arguments(args)
  local found, module = pcall(require, "addbo")
  if not found then
    error("cannot load addbo (set LUA_CPATH to the LuaJIT or Lua 5.1 module's directory): "
          .. tostring(module), 0)
  end
  addbo = module
  if options.steps_per_frame > 1 then love.window.setVSync(0) end  -- fast: no waiting for vsync
  tuning = tuner.new(addbo, lander.PARAMETERS, options.seed, love.timer.getTime)
  print(("addbo %s in LÖVE %s (%s): %s episodes, %d simulation steps per frame"):format(
    addbo.version(), love.getVersion(), jit and jit.version or _VERSION,
    options.episodes > 0 and options.episodes or "endless", options.steps_per_frame))
end

local function finish_episode()
  local n = #scores + 1
  scores[n], outcomes[n] = episode.score, episode.outcome
  if episode.score > best.score then best = { score = episode.score, episode = n } end
  print(("episode %3d  score %8.2f  %-18s  fuel %5.1f  %5.1f s  (its ask %.2f ms)"):format(
    n, episode.score, episode.outcome, episode.fuel, episode.time, tuning.last_ms))
  local more = options.episodes == 0 or n < options.episodes
  tuning:finished(episode.score, more)
  finishing = not more
end

local function report_and_quit()
  local cost = tuning:cost()
  print(("episodes %d: best score %.2f (episode %d); told %d, %d pending"):format(#scores,
    best.score, best.episode, tuning.optimizer:count(), tuning.optimizer:pending()))
  print(("addbo per frame: %d frames with a call, median %.3f ms, max %.3f ms; budget %.1f ms, "
         .. "frames over budget: %d"):format(cost.frames, cost.median_ms, cost.max_ms,
                                              tuner.BUDGET_MS, cost.over_budget))
  tuning.optimizer:close()
  love.event.quit(0)
end

function love.update()
  local point = tuning:update()  -- at most one addbo call in a frame
  if point then episode = lander.new_episode(point) end
  if episode and not episode.over then
    for _ = 1, options.steps_per_frame do
      lander.step(episode)
      if episode.over then
        finish_episode()
        break
      end
    end
  end
  if finishing and not tuning:busy() then
    finishing = false
    if options.screenshot then
      love.graphics.captureScreenshot(function(image)
        local file = assert(io.open(options.screenshot, "wb"))
        file:write(image:encode("png"):getString())
        file:close()
        print("screenshot: " .. options.screenshot)
        report_and_quit()
      end)
    else
      report_and_quit()
    end
  end
end

-- Drawing: the world (metres, y up) in the left part of the window, the scores at the right.
local WORLD = { left = -100, right = 40, bottom = -5, top = 130 }

local function to_screen(x, y)
  local w, h = 620, love.graphics.getHeight() - 40
  return 20 + (x - WORLD.left) / (WORLD.right - WORLD.left) * w,
         20 + (WORLD.top - y) / (WORLD.top - WORLD.bottom) * h
end

local function draw_world()
  love.graphics.setColor(0.45, 0.45, 0.5)
  local x0, y0 = to_screen(WORLD.left, 0)
  local x1 = to_screen(WORLD.right, 0)
  love.graphics.line(x0, y0, x1, y0)
  love.graphics.setColor(0.3, 0.85, 0.4)
  local pad0 = to_screen(-lander.PAD_HALF_WIDTH, 0)
  local pad1 = to_screen(lander.PAD_HALF_WIDTH, 0)
  love.graphics.setLineWidth(4)
  love.graphics.line(pad0, y0, pad1, y0)
  love.graphics.setLineWidth(1)
  if not episode then return end
  love.graphics.setColor(0.5, 0.6, 0.9, 0.7)
  local path = {}
  for i = 1, #episode.path, 2 do
    path[i], path[i + 1] = to_screen(episode.path[i], episode.path[i + 1])
  end
  if #path >= 4 then love.graphics.line(path) end
  local sx, sy = to_screen(episode.x, episode.y)
  if not episode.over and episode.main > 0.01 then
    love.graphics.setColor(1.0, 0.6, 0.1)
    love.graphics.polygon("fill", sx - 5, sy, sx + 5, sy, sx, sy + 8 + 22 * episode.main)
  end
  local crashed = episode.outcome == "crashed"
  love.graphics.setColor(crashed and 0.9 or 0.95, crashed and 0.3 or 0.95, crashed and 0.3 or 0.95)
  love.graphics.polygon("fill", sx - 9, sy, sx + 9, sy, sx + 5, sy - 14, sx - 5, sy - 14)
end

local function draw_scores()
  local left, top, width, height = 670, 330, 270, 230
  love.graphics.setColor(0.25, 0.25, 0.3)
  love.graphics.rectangle("line", left, top, width, height)
  love.graphics.setColor(0.8, 0.8, 0.85)
  love.graphics.print("scores (-100 to 100), best so far", left, top - 18)
  local count = math.max(#scores, 10)
  local best_line, best_so_far = {}, -math.huge
  for i, score in ipairs(scores) do
    best_so_far = math.max(best_so_far, math.max(-100, math.min(100, score)))
    best_line[#best_line + 1] = left + (i - 0.5) / count * width
    best_line[#best_line + 1] = top + height / 2 - best_so_far / 100 * height / 2
  end
  if #best_line >= 4 then
    love.graphics.setColor(0.95, 0.8, 0.3)
    love.graphics.line(best_line)
  end
  for i, score in ipairs(scores) do
    local value = math.max(-100, math.min(100, score))
    local x = left + (i - 0.5) / count * width
    local y = top + height / 2 - value / 100 * height / 2
    local landed = outcomes[i] == "landed"
    love.graphics.setColor(landed and 0.3 or 0.9, landed and 0.85 or 0.4, 0.4)
    love.graphics.circle("fill", x, y, 3)
  end
end

function love.draw()
  love.graphics.clear(0.06, 0.06, 0.1)
  draw_world()
  draw_scores()
  love.graphics.setColor(0.9, 0.9, 0.95)
  local lines = {
    ("episode %d%s"):format(#scores + (episode and not episode.over and 1 or 0),
                            options.episodes > 0 and (" of " .. options.episodes) or ""),
    ("best score %.1f (episode %d)"):format(best.score > -math.huge and best.score or 0, best.episode),
    ("last: %s"):format(outcomes[#outcomes] or "-"),
    "",
    "autopilot (asked from addbo):",
  }
  if episode then
    for i, p in ipairs(lander.PARAMETERS) do
      lines[#lines + 1] = ("  %-16s %7.3f"):format(p.name, episode.p[i])
    end
  end
  local cost = tuning:cost()
  lines[#lines + 1] = ""
  lines[#lines + 1] = ("addbo per frame: last %.2f ms, max %.2f ms"):format(tuning.last_ms, cost.max_ms)
  lines[#lines + 1] = ("budget %.0f ms; frames over: %d"):format(tuner.BUDGET_MS, cost.over_budget)
  love.graphics.print(table.concat(lines, "\n"), 670, 20)
end
