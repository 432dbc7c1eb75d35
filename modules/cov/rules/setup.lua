-- Congress of Vienna set-up (Playbook 17.1, each scenario of 17.2-17.6, and 18.4): what
-- the scenario data cannot lay out by itself. It builds the draw deck, the Initial Situation
-- deck and the Handicap deck, puts the issue markers on the Diplomacy Display, fills the
-- force pools and Military Support boxes from the counter mix (once the owner has entered
-- it), and applies the seating option (players and solitaire variants, 18.2-18.4, 20-23).

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")

local setup = {}

-- Which powers people play in each seating (the others are bots).
local HUMANS = {
  ["four-players"] = { "FR", "RU", "AU", "BR" },
  ["two-players"] = { "FR", "RU", "AU", "BR" },
  ["three-players"] = { "FR", "RU", "AU", "BR" },
  ["solo-vs-allied-bot"] = { "FR" },
  ["solo-vs-french-bot"] = { "RU", "AU", "BR" },
  ["solo-fog-of-war"] = { "FR", "RU", "AU", "BR" },
  ["solo"] = { "RU", "BR" },
}

-- Reads the options (their keys and values are declared in data/options.ron and checked by
-- the engine) and checks what they say together with the scenario; returns the seating, the
-- Initial Situation mode and the powers played by people.
function setup.options(scenario, options)
  local lutzen = scenario.id == "lutzen-bautzen"
  local seating = options.seating or (lutzen and "solo" or "four-players")
  local allowed = lutzen and { solo = true, ["two-players"] = true, ["three-players"] = true }
    or { solo = false }
  if lutzen and not allowed[seating] then
    error("Lützen & Bautzen is played solo, by two or by three players (seating solo, two-players or three-players)", 0)
  elseif not lutzen and seating == "solo" then
    error("seating 'solo' is for Lützen & Bautzen; pick one of the solitaire seatings", 0)
  end
  local humans = HUMANS[seating]
  if seating == "solo-allied-power" then
    local power = options.human
    if power ~= "RU" and power ~= "AU" and power ~= "BR" then
      error("seating solo-allied-power needs --option human=RU, AU or BR", 0)
    end
    humans = { power }
  elseif lutzen and seating ~= "solo" then
    humans = { "FR", "RU", "BR" }
  end
  local mode = options.situation or "historic"
  local versions = scenario.vars.situation.versions
  if versions and mode ~= "historic" and not util.contains(versions, mode == "random" and "B" or mode) then
    error(string.format("%s uses only Initial Situation deck %s (Playbook %s): leave out the situation option, or give situation=%s",
      scenario.name, table.concat(versions, ", "), scenario.vars.playbook, versions[1]), 0)
  end
  if scenario.vars.situation.cards and options.situation ~= nil then
    error(string.format("%s plays its own Initial Situation card (%s): leave out the situation option",
      scenario.name, table.concat(scenario.vars.situation.cards, ", ")), 0)
  end
  return seating, mode, humans
end

--- Puts every card of the data's deck `deck` ("common", "situation") that is in no zone
--- yet at the bottom of `zone`, in the data's order.
local function gather(ctx, deck, zone)
  for _, id in ipairs(ctx.data.card_ids) do
    if ctx.data.cards[id].deck == deck and ctx:card_zone(id) == nil then
      ctx:move_card(id, zone, "bottom")
    end
  end
end

-- Every card of the common deck that the scenario did not place goes into the draw deck,
-- which is then shuffled.
function setup.draw_deck(ctx)
  gather(ctx, "common", "deck")
  ctx:shuffle("deck")
end

-- The Initial Situation deck: the scenario's turns in order, each turn's versions A, B, C
-- (or the scenario's own cards); the other situation cards are set aside.
function setup.situation_deck(ctx, spec)
  if spec.cards then
    for _, id in ipairs(spec.cards) do
      ctx:move_card(id, "situation.deck", "bottom")
    end
  else
    for _, turn in ipairs(spec.turns) do
      for _, version in ipairs(spec.versions) do
        ctx:move_card(string.lower(version) .. "_" .. turn, "situation.deck", "bottom")
      end
    end
  end
  gather(ctx, "situation", "situation.aside")
  gather(ctx, "handicap", "handicap.deck")
  ctx:shuffle("handicap.deck")
end

-- Every issue marker goes to its space on the Diplomacy Display, except the issues the
-- scenario removes from the game.
function setup.issues(ctx, removed)
  local placed = 0
  for _, id in ipairs(ctx.data.piece_ids) do
    local piece = ctx.data.pieces[id]
    if piece.kind == "issue" and not util.contains(removed, piece.props.issue) then
      ctx:place(id, "diplomacy", "display")
      placed = placed + 1
    end
  end
  return placed
end

-- Units of `kind` already on the table (in every box).
local function units_placed(ctx, kind)
  local total = 0
  for _, box in ipairs(ctx.data.box_ids) do
    total = total + (ctx:box(box)[kind] or 0)
  end
  return total
end

-- Puts into the force pool the units of `kind` the counter mix has and the table does not
-- (reading the counter mix asks for it if it is not entered yet).
local function fill_pool(ctx, kind)
  local total = ctx.data.tables.counter_mix[kind]
  local placed = units_placed(ctx, kind)
  if total < placed then
    error(string.format("the counter mix has %d %s, but %d are on the table", total, kind, placed), 0)
  end
  ctx:add_units("pool." .. ctx.data.unit_kinds[kind].owner, kind, total - placed)
end

-- Each force pool holds what the counter mix has and the scenario does not place; each
-- power's Military Support markers wait in its supports box. Kinds whose totals are not
-- entered yet are left empty and listed in the return value.
function setup.pools(ctx)
  local missing = {}
  for _, kind in ipairs(ctx.data.unit_kind_ids) do
    local owner = ctx.data.unit_kinds[kind].owner
    if string.find(kind, "_support", 1, true) then
      if ctx:known("table", "military_support_markers", owner) then
        ctx:add_units("supports." .. owner, kind, ctx.data.tables.military_support_markers[owner])
      else
        missing[#missing + 1] = kind
      end
    elseif ctx:known("table", "counter_mix", kind) then
      fill_pool(ctx, kind)
    else
      missing[#missing + 1] = kind
    end
  end
  return missing
end

-- A force pool the set-up left empty because the counter mix was not entered: fill it now
-- that a rule needs its units (reading the counter mix asks for it if it is still unknown).
function setup.ensure_pool(ctx, kind)
  local missing = ctx.vars.pools_not_entered or {}
  for i, k in ipairs(missing) do
    if k == kind then
      fill_pool(ctx, kind)
      table.remove(missing, i)
      ctx.vars.pools_not_entered = missing
      return
    end
  end
end

-- A Generalissimo marker that starts on its hexagonal space near Vienna (the Campaign for
-- France 1814, L934) means its power has the Generalissimo from the start: it scores its
-- end-of-turn VP (L563), and puts the marker on an army as its headquarters at the first
-- War Phase (RULES-GAPS.md).
function setup.starting_generalissimo(ctx)
  for _, power in ipairs({ "AU", "RU" }) do
    local place, space = ctx:space_of("generalissimo." .. power)
    if place == "holding" and space == "generalissimo" then
      ctx.vars.generalissimo = { power = power }
      ctx:log(string.format("%s has the Generalissimo from the start.", ctx.data.seats[power].name))
    end
  end
end

-- In the solitaire seatings KUTUZOV is set aside, available to Russia at each War Phase
-- while he lives, instead of being dealt to Russia (the note in 19.3).
function setup.solitaire_kutuzov(ctx)
  if powers.solitaire(ctx) and ctx:card_zone("kutuzov") == "hand.RU" then
    ctx:move_card("kutuzov", "aside")
    ctx:log("Kutuzov is set aside: in solitaire play he is available to Russia at each War Phase (19.3).")
  end
end

return setup
