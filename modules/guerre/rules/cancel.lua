-- La Guerre de l'Empereur: the Cancel Declaration window (4.62-4.623). A declaration of
-- Military Cooperation, Negotiated Peace, Alliance or War may be cancelled: any other
-- player may try, once in all, as soon as it is declared: he pays 5 gold to the bank and
-- rolls two dice read as tens and ones; 95 or more cancels it for this Season.

local powers = include("rules/powers.lua")
local steps = include("@lib/steps.lua")
local util = include("@lib/util.lua")
local ask = include("rules/ask.lua")

local cancel = {}

cancel.COST, cancel.AT = 5, 95

--- The two dice of a cancellation read as a number (2.42): tens, then ones, a 0 for ten.
function cancel.percent(tens, ones)
  local n = (tens % 10) * 10 + ones % 10
  return n == 0 and 100 or n
end

-- The Player Countries who may try to cancel, in the powers' order: all but `parties`.
local function others(ctx, parties)
  return util.filter(ctx.vars.pcs, function(power)
    return not util.contains(parties, power)
  end)
end

--- The window on a declaration (`words`: "France declares war on Britain"; `parties` may
--- not try), as a procedure's step returns it: its `resume` gets `{cancelled = true|false}`.
--- Nil when no player may try (the declaration stands).
function cancel.window(ctx, words, parties)
  local list = others(ctx, parties)
  if #list == 0 then
    return nil
  end
  return steps.call("cancel_window", { words = words, seats = list, n = 1 })
end

--- Opens the window from a state's action: the state's `on_resume` gets `{cancelled =
--- true|false}`. Returns false, opening nothing, when no player may try.
function cancel.open(ctx, words, parties)
  local window = cancel.window(ctx, words, parties)
  if window == nil then
    return false
  end
  ctx:call(window.call, window.locals)
  return true
end

cancel.states = {}

local window = ask.question(function(ctx)
  return string.format("4.62 %s: may %s try to cancel it?", ctx.locals.words, powers.name(ctx, ask.in_turn(ctx)))
end, function(ctx)
  local actions = { { name = "pass", label = "Let it stand" } }
  if ctx:counter("gold." .. ask.in_turn(ctx)) >= cancel.COST then
    table.insert(actions, 1, { name = "cancel", label = "Pay 5 gold and roll to cancel it (95 or more)" })
  end
  return actions
end, {}, ask.in_turn)
cancel.states.cancel_window = window

function window.cancel(ctx)
  local power = ask.in_turn(ctx)
  ctx:add_counter("gold." .. power, -cancel.COST)
  local tens = ctx:roll(10, powers.name(ctx, power) .. "'s cancellation, tens")
  local ones = ctx:roll(10, powers.name(ctx, power) .. "'s cancellation, ones")
  local n = cancel.percent(tens, ones)
  if n >= cancel.AT then
    ctx:log(string.format("%s pays 5 gold and cancels it (%d): it may be declared again next Season (4.623).", powers.name(ctx, power), n))
    ctx:pop({ cancelled = true })
    return
  end
  ctx:log(string.format("%s pays 5 gold and fails to cancel it (%d): it stands.", powers.name(ctx, power), n))
  ctx:pop({ cancelled = false })
end

function window.pass(ctx)
  if not ask.pass_on(ctx) then
    ctx:pop({ cancelled = false })
  end
end

return cancel
