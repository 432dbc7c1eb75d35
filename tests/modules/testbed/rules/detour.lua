-- Testbed rules: the "detour" state, pushed over a turn: a yes/no question whose answer
-- either sets the mystery card aside or brings it back, then returns to the turn.

local detour = {}

function detour.on_enter(ctx)
  -- (ctx:demo(): the testbed has no demo values; a game of them would say so.)
  ctx:log("Detour begins (" .. ctx:state() .. ", " .. ctx:phase() .. (ctx:demo() and ", demo" or "") .. ").")
  ctx:set_phase("detour")
end

function detour.on_exit(ctx)
  ctx:log("Detour ends for " .. ctx.locals.from .. ".")
  ctx:set_phase("play")
end

function detour.prompt(ctx)
  local kind = ctx:controller(ctx.locals.from)
  return {
    seat = ctx.locals.from,
    text = "Set the mystery card aside? (" .. kind .. ")",
    actions = { { name = "yes", arg = true }, { name = "no", arg = false } },
  }
end

function detour.yes(ctx)
  local zone = ctx:card_zone("mystery")
  if zone ~= "aside" then
    ctx:move_card("mystery", "aside", "bottom")
  end
  ctx:flip("mystery", false)
  if ctx:space_of("marker.B") then
    ctx:remove_piece("marker.B")
  end
  ctx:pop()
end

function detour.no(ctx)
  if not ctx:face_up("mystery") then
    ctx:flip("mystery")
  end
  if not ctx:space_of("marker.B") then
    ctx:place("marker.B", "score", "0")
  end
  ctx:pop()
end

return detour
