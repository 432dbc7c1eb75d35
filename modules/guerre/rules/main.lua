-- La Guerre de l'Empereur (seed 003): the hook table, the set-up (3.0-3.6) and the
-- calendar of Combat Seasons with their chit cup (4.5-4.6). The module runs the game in
-- steps (see README.md for how far): what it does not run yet is played at the table,
-- and the module keeps the calendar, the chits, the VP and the gold.

local bid = include("rules/bid.lua")
local season = include("rules/season.lua")

-- The powers in the order 3.0 makes them Player Countries (L463-L467).
local POWERS = { "FR", "GB", "RU", "AU", "PR", "SP", "OT" }

local function setup(ctx, scenario, options)
  local players = {}
  for i = 1, ctx.vars.players do
    players[i] = POWERS[i]
  end
  ctx.vars.powers = POWERS
  -- The Player Countries (3.2); every other power is an inactive NPC (3.31).
  ctx.vars.pcs = players
  ctx.vars.npc = {}
  for i = ctx.vars.players + 1, #POWERS do
    ctx.vars.npc[POWERS[i]] = "inactive"
  end
  ctx.vars.year, ctx.vars.season = 1805, "Fall"
  ctx:set_phase("Fall 1805: set-up")
  ctx:log(string.format("%d players: %s play; %s start as inactive NPCs, and nobody is at war.",
    #players, bid.names(ctx, players), #players < #POWERS and bid.names(ctx, { table.unpack(POWERS, #players + 1) }) or "no power"))
  ctx:push("bid")
end

-- What every seat may see besides the table: the calendar, who plays which power, the NPCs.
local function view(ctx, seat)
  return {
    date = string.format("%s %d", ctx.vars.season, ctx.vars.year),
    players = ctx.vars.played_by,
    npc = ctx.vars.npc,
  }
end

local states = {}
for name, state in pairs(bid.states) do
  states[name] = state
end
for name, state in pairs(season.states) do
  states[name] = state
end

return {
  setup = setup,
  states = states,
  view = view,
}
