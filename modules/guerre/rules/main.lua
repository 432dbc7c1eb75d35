-- La Guerre de l'Empereur (seed 003): the hook table, the set-up (3.0-3.6) and the game's
-- sequence of play (3.7): the bid, then the Seasons on the calendar (rules/season.lua,
-- rules/winter.lua). The module runs the game in steps (see README.md for how far): what it
-- does not run yet is played at the table, and the module keeps the calendar, the chits,
-- the VP and the gold.

local util = include("@lib/util.lua")
local steps = include("@lib/steps.lua")
local bid = include("rules/bid.lua")
local season = include("rules/season.lua")
local winter = include("rules/winter.lua")
local prepare = include("rules/prepare.lua")
local naval = include("rules/naval.lua")
local battle = include("rules/battle.lua")
local war = include("rules/war.lua")
local powers = include("rules/powers.lua")
local cancel = include("rules/cancel.lua")
local peace = include("rules/peace.lua")
local alliance = include("rules/alliance.lua")
local form = include("@lib/form.lua")
local standings = include("rules/standings.lua")
local ask = include("rules/ask.lua")

-- The powers in the order 3.0 makes them Player Countries (L463-L467).
local POWERS = { "FR", "GB", "RU", "AU", "PR", "SP", "OT" }

-- The named readings (RULES-GAPS.md) are declared in data/options.ron, default first: the
-- text gives two rules for who wins a land battle.
local function setup(ctx, scenario, options)
  ctx.vars.options = util.readings(ctx.data.options, options)
  local players = {}
  for i = 1, ctx.vars.players do
    players[i] = POWERS[i]
  end
  ctx.vars.powers = POWERS
  -- The Player Countries (3.2); every other power is an inactive NPC (3.31).
  ctx.vars.pcs = players
  ctx.vars.pcs_set = {}
  for _, power in ipairs(players) do
    ctx.vars.pcs_set[power] = true
  end
  -- The relations between the powers (rules/powers.lua): the NPCs' allies, the Controlling
  -- PC of each Controlled NPC, the alliances of players, the wars, the Enforced Peaces, Free
  -- Passage, the declarations of war owed, this Season's coalitions (4.61).
  ctx.vars.npc_ally, ctx.vars.controller, ctx.vars.league = {}, {}, {}
  ctx.vars.wars, ctx.vars.peace, ctx.vars.passage, ctx.vars.owed, ctx.vars.coalition = {}, {}, {}, {}, {}
  -- The Continental System's participants and their years on its track.
  ctx.vars.embargo, ctx.vars.embargo_years = {}, {}
  -- Declarations cancelled this Season (by "declarer>target", "peace:A/B", "ally:A/B").
  ctx.vars.cancelled = {}
  -- One-time events that have happened, by "table/roll"; events deferred, by power; the
  -- Peace Parties (4.74), by power; the Loyal Minor Powers formed (4.73), by id: founder.
  ctx.vars.events_done, ctx.vars.deferred, ctx.vars.peace_party, ctx.vars.loyal = {}, {}, {}, {}
  ctx.vars.loyal_provinces = {}
  -- Each power's Player Mat, hidden from the others (2.5, rules/mat.lua).
  for _, power in ipairs(POWERS) do
    ctx.private[power].mat = {}
  end
  ctx.vars.npc = {}
  for i = ctx.vars.players + 1, #POWERS do
    ctx.vars.npc[POWERS[i]] = "inactive"
  end
  ctx.vars.year, ctx.vars.season = 1805, "Fall"
  ctx:set_phase("Fall 1805: set-up")
  ctx:log(string.format("%d players: %s play; %s start as inactive NPCs, and nobody is at war.",
    #players, powers.names(ctx, players), #players < #POWERS and powers.names(ctx, { table.unpack(POWERS, #players + 1) }) or "no power"))
  ctx:call("game")
end

-- What a seat may see besides the table, in words (the app's Standings panel): the
-- calendar, who plays which power, the VP and gold, the relations between the powers
-- (2.7's displays), and the seat's own Player Mat.
local function view(ctx, seat)
  local v = standings.of(ctx)
  v.Date = string.format("%s %d", ctx.vars.season, ctx.vars.year)
  -- Who plays which power, while a player is still known by the place he bid from (3.1).
  local moved = {}
  for power, place in pairs(ctx.vars.played_by or {}) do
    if place ~= power then
      moved[power] = string.format("the player at %s's place", powers.name(ctx, place))
    end
  end
  if next(moved) then
    v.Players = moved
  end
  if seat and next(ctx.private[seat].mat or {}) then
    local corps = {}
    for number, f in pairs(ctx.private[seat].mat) do
      corps["Corps #" .. number] = string.format("%d infantry, %d cavalry, %d artillery", f.infantry, f.cavalry, f.artillery)
    end
    v["Player Mat"] = corps
  end
  return v
end

-- The game (3.7, 1.2): the set-up's bid and picks (3.1) and initial money (3.2), then each
-- Season in turn from Fall 1805: a Winterphase or a Combat Season, each of which moves the
-- calendar on as it ends (4.41, 6.2), until a victory (7.0) or the end of Fall 1815.
local game = steps.procedure("3.7 Sequence of Play", {
  ask.calling {
    name = "3.1 Country Representation Bid",
    calls = "bid",
  },
  {
    name = "3.1 The picks, in bid order",
    each = function(ctx)
      local picks = {}
      for n in ipairs(ctx.vars.pick_order) do
        picks[n] = n
      end
      return picks
    end,
    calls = "pick",
    run = function(ctx, n)
      return steps.call("pick", { n = n })
    end,
    resume = bid.picked,
  },
  { name = "3.2 Initial money", run = bid.initial_money },
  {
    name = "1.2 The Seasons, from Fall 1805 to the end of Fall 1815",
    calls = { "season", "winterphase" },
    run = season.current,
    resume = season.current,
  },
})

-- Every procedure's states, in one table (a form's figures asked one at a time: @lib/form.lua).
local states = { form = form.state, game = game }
for _, part in ipairs({ bid, season, winter, prepare, naval, battle, war, cancel, peace, alliance }) do
  for name, state in pairs(part.states) do
    states[name] = state
  end
end

-- Invariants: every chit somewhere (the cup, drawn, or out of the cup); NPCs collect no VP
-- or gold (4.411); an NPC is allied exactly when it has a Player Country ally, and
-- Controlled exactly when it has a controller; only Player Countries form alliances; no
-- two allies are at war.
local function check(ctx)
  local chits = ctx:count("cup") + ctx:count("drawn") + ctx:count("chits")
  if chits ~= #POWERS then
    return false, string.format("%d chits on the table, %d powers", chits, #POWERS)
  end
  for npc, status in pairs(ctx.vars.npc) do
    if ctx:counter("vp." .. npc) ~= 0 or ctx:counter("gold." .. npc) ~= 0 then
      return false, npc .. ", an NPC, has VP or gold"
    end
    local ally = ctx.vars.npc_ally[npc]
    if (status == "allied") ~= (ally ~= nil) or (ally and not ctx.vars.pcs_set[ally]) then
      return false, string.format("%s is %s with ally %s", npc, status, tostring(ally))
    end
    if (status == "controlled") ~= (ctx.vars.controller[npc] ~= nil) then
      return false, string.format("%s is %s with controller %s", npc, status, tostring(ctx.vars.controller[npc]))
    end
  end
  for power in pairs(ctx.vars.league) do
    if not ctx.vars.pcs_set[power] then
      return false, power .. ", not a Player Country, is in an alliance"
    end
  end
  for pair in pairs(ctx.vars.wars) do
    local a, b = pair:match("^(%a+)/(%a+)$")
    if powers.allied(ctx, a, b) then
      return false, string.format("%s and %s are allies at war", a, b)
    end
  end
  return true
end

return {
  setup = setup,
  states = states,
  view = view,
  check = check,
}
