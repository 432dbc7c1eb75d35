-- Testbed rules: the hook table. Not a real game: two seats take turns playing numbered
-- cards to score, may bid, roll for troops or march a block; two passes in a row end it.

local deck = include("@lib/deck.lua")
local util = include("@lib/util.lua")
local turn = include("rules/turn.lua")
local detour = include("rules/detour.lua")
local council = include("rules/council.lua")
local muster = include("rules/muster.lua")
local simple = include("bots/simple.lua")

local function setup(ctx, scenario, options)
  ctx:shuffle("deck")
  for _, seat in ipairs(ctx:seats()) do
    ctx:deal("deck", "hand." .. seat, ctx.vars.hand_size)
  end
  -- Each seat's favour in a council's wagers is private: only that seat (and its bot) knows it.
  for i, seat in ipairs(ctx:seats()) do
    ctx.private[seat] = { favour = i }
    ctx:tell(seat, string.format("Your favour in wagers is %d.", i))
  end
  ctx:set_phase("play")
  ctx:set_turn(1)
  ctx:log(string.format("Scenario %s set up (%s).", scenario.name, ctx.scenario))
  if options.first == "B" then
    ctx:push("turn", { seat = "B" })
  else
    ctx:push("turn", { seat = "A" })
  end
  -- The scout scenario lies under fog of war: each seat sees its own pieces on the land,
  -- and only Alpha the pool.
  if ctx.scenario == "scout" then
    ctx:set_sight("place", "land", "owner")
    ctx:set_sight("box", "pool", { "A" })
  end
  -- The muster scenario begins with a procedure of declared steps (rules/muster.lua); a
  -- seat named by the option "gone" has left and is passed by.
  if ctx.scenario == "muster" then
    if options.gone then
      ctx.vars.gone = { [options.gone] = true }
    end
    ctx:call("muster", {})
  end
end

-- The cards a seat cannot find whose face (up or down) it can still read: none, or which
-- card lies face down would show.
local function unseen_faces(ctx)
  return util.filter(ctx.data.card_ids, function(card)
    return ctx:card_zone(card) == nil and ctx:face_up(card) ~= nil
  end)
end

-- A bot that tries to look at the other hand: it reports what it sees, to test that bots
-- see only what their seat may see.
local function peek(ctx, seat, actions)
  local other = seat == "A" and "B" or "A"
  local theirs = ctx:zone("hand." .. other)
  local mine = ctx:zone("hand." .. seat)
  return 1, {
    "theirs: " .. table.concat(theirs, ","),
    "mine: " .. table.concat(mine, ","),
    "deck: " .. table.concat(ctx:zone("deck"), ","),
    "where is " .. mine[1] .. ": " .. tostring(ctx:card_zone(mine[1])),
    "answered: " .. table.concat(ctx:answered(), ","),
    "faces of cards it cannot see: " .. table.concat(unseen_faces(ctx), ","),
  }
end

-- A bot that picks by its own fate die alone, to test that its draws depend on nothing its
-- seat may not see.
local function fate(ctx, seat, actions)
  local die = ctx:random(1000, "fate")
  return (die - 1) % #actions + 1, { "fate: " .. die }
end

-- A bot that tries to read the other seat's private state: reading it is an error.
local function spy(ctx, seat, actions)
  local other = seat == "A" and "B" or "A"
  return 1, { "their favour: " .. tostring(ctx.private[other].favour) }
end

-- What a seat may see: the passes so far, and the other hand as that seat sees it.
local function view(ctx, seat)
  local other = seat == "A" and "B" or "A"
  return { passes = ctx.vars.passes, seat = seat, other_hand = ctx:zone("hand." .. other) }
end

-- Invariants: scores within the track, and every card somewhere on the table.
local function check(ctx)
  local all, why = deck.all_cards_on_table(ctx)
  if not all then
    return false, why
  end
  for _, seat in ipairs(ctx:seats()) do
    local vp = ctx:counter("vp." .. seat)
    if vp < 0 or vp > 10 then
      return false, "score out of bounds"
    end
  end
  return true
end

return {
  setup = setup,
  states = {
    turn = turn,
    detour = detour,
    council = council.council,
    round = council.round,
    wager = council.wager,
    objection = council.objection,
    muster = muster.muster,
    levy = muster.levy,
    review = muster.review,
  },
  effects = council.effects,
  view = view,
  check = check,
  bots = { simple = simple, peek = peek, spy = spy, fate = fate },
}
