-- La Guerre de l'Empereur: the Standings every seat reads, in words (the app's panel and
-- the state's view): the VP and gold, the NPCs, and the relations between the powers as
-- the Alliance Display and the Enforced Peace Record Track show them (2.7), with what else
-- the module keeps (the wars owed, Military Cooperation, Peace Parties, Loyal Minor Powers,
-- the one-time events that have happened).

local powers = include("rules/powers.lua")
local prepare = include("rules/prepare.lua")

local standings = {}

--- The relations between the powers in words, by heading (the empty ones left out): what
--- the Alliance Display and the Enforced Peace Record Track show (2.7), and more.
function standings.of(ctx)
  local v = {}
  local books = {}
  for _, pc in ipairs(ctx.vars.pcs) do
    books[pc] = string.format("%d VP, %d gold", ctx:counter("vp." .. pc), ctx:counter("gold." .. pc))
  end
  v["VP and gold"] = books
  local npcs = {}
  for npc, status in pairs(ctx.vars.npc) do
    npcs[npc] = status == "allied" and "allied with " .. powers.name(ctx, ctx.vars.npc_ally[npc])
      or status == "controlled" and "controlled by " .. powers.name(ctx, ctx.vars.controller[npc])
      or status
  end
  if next(npcs) then
    v.NPCs = npcs
  end
  local function sentence(key, list)
    if #list > 0 then
      v[key] = table.concat(list, "; ")
    end
  end
  local rank = {}
  for i, p in ipairs(ctx.vars.powers) do
    rank[p] = i
  end
  local wars, seen = {}, {}
  for i, a in ipairs(ctx.vars.powers) do
    for j, b in ipairs(ctx.vars.powers) do
      if i < j and powers.at_war(ctx, a, b) then
        wars[#wars + 1] = powers.name(ctx, a) .. " and " .. powers.name(ctx, b)
      end
    end
  end
  sentence("Wars", wars)
  local alliances = {}
  for _, pc in ipairs(ctx.vars.pcs) do
    local members = powers.alliance(ctx, pc)
    if #members > 1 and not seen[members[1]] then
      seen[members[1]] = true
      alliances[#alliances + 1] = powers.names(ctx, members)
    end
  end
  sentence("Alliances", alliances)
  -- A record that lasts to a Season (`by`: "A/B" or "A>B" to its last Season), in words.
  local function lasting(key, by, sep, words)
    local list = {}
    for pair, last in pairs(by) do
      if last >= powers.season_index(ctx) then
        local a, b = pair:match("^(%a+)" .. sep .. "(%a+)$")
        -- Two at peace in the powers' order (3.0), as the wars.
        if sep == "/" and rank[b] < rank[a] then
          a, b = b, a
        end
        list[#list + 1] = string.format("%s, to the end of %s", words(powers.name(ctx, a), powers.name(ctx, b)), powers.season_name(last))
      end
    end
    table.sort(list)
    sentence(key, list)
  end
  lasting("Enforced Peace", ctx.vars.peace, "/", function(a, b) return a .. " and " .. b end)
  lasting("Free Passage", ctx.vars.passage, ">", function(grantor, user) return user .. " through " .. grantor end)
  local owed = {}
  for _, pc in ipairs(ctx.vars.pcs) do
    local targets = {}
    for _, target in ipairs(ctx.vars.powers) do
      if (ctx.vars.owed[pc] or {})[target] then
        targets[#targets + 1] = target
      end
    end
    if #targets > 0 then
      owed[#owed + 1] = string.format("%s on %s", powers.name(ctx, pc), powers.names(ctx, targets))
    end
  end
  sentence("Wars owed to allies", owed)
  local coalitions = {}
  for head, members in pairs(ctx.vars.coalition) do
    coalitions[#coalitions + 1] = string.format("%s, on %s's chit", powers.names(ctx, members), powers.name(ctx, head))
  end
  table.sort(coalitions)
  sentence("Military Cooperation", coalitions)
  local parties = {}
  for _, pc in ipairs(ctx.vars.pcs) do
    if ctx.vars.peace_party[pc] then
      parties[#parties + 1] = powers.name(ctx, pc)
    end
  end
  sentence("Peace Parties", parties)
  local loyal = {}
  for _, minor in ipairs(powers.LOYAL) do
    if ctx.vars.loyal[minor.id] then
      loyal[#loyal + 1] = string.format("%s (%s)", minor.name, powers.name(ctx, ctx.vars.loyal[minor.id]))
    end
  end
  sentence("Loyal Minor Powers", loyal)
  local done = {}
  for key in pairs(ctx.vars.events_done) do
    local which, roll = key:match("^(%w+)/(%d+)$")
    done[#done + 1] = string.format("%s %s", prepare.TABLES[which].name, roll)
  end
  table.sort(done)
  sentence("One-time events that have happened", done)
  return v
end

return standings
