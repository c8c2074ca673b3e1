<!-- include start from interface/enable-arp-announce.xml.i -->
<leafNode name="enable-arp-announce">
  <properties>
    <help>Enable ARP announce on this interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
